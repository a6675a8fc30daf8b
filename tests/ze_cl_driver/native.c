/* ze_cl_driver: native binaries. A CPU cannot run Intel ISA, but the driver
 * can play a GPU of one IP version so that tests see which embedded native
 * binary the library picks for it (issue 19):
 *
 *   ZE_CL_DRIVER_IP_VERSION=0x03118004   (an MTL-U, say; unset: no GPU)
 *
 * A native module is accepted when it is a zebin whose IP-version note
 * (".note.intelgt.compat", owner "IntelGT", type 6: what ocloc 26 writes)
 * equals that value, as a GPU's driver accepts only binaries of its own
 * device; the module is then built from the SPIR-V the zebin carries in its
 * ".spv" section. Every other native binary is refused with
 * ZE_RESULT_ERROR_INVALID_NATIVE_BINARY. zecl_test_native_modules() counts
 * the native modules built, for tests (tests/ze/test_native.c). */
#include "zecl_internal.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

enum { NOTE_IP_VERSION = 6 };

static uint64_t native_modules; /* g.lock */

/* The section called `name` of an ELF64 image, bounds-checked; NULL if none. */
static const unsigned char *elf_section(const unsigned char *bin, size_t size, const char *name,
                                        size_t *out_size)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)bin;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
        eh->e_shstrndx >= eh->e_shnum)
        return NULL;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(bin + eh->e_shoff);
    const Elf64_Shdr *names = &sh[eh->e_shstrndx];
    if (names->sh_offset > size || names->sh_size > size - names->sh_offset)
        return NULL;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_name >= names->sh_size || sh[i].sh_offset > size ||
            sh[i].sh_size > size - sh[i].sh_offset)
            continue;
        const char *n = (const char *)bin + names->sh_offset + sh[i].sh_name;
        if (strnlen(n, names->sh_size - sh[i].sh_name) < names->sh_size - sh[i].sh_name &&
            strcmp(n, name) == 0) {
            *out_size = sh[i].sh_size;
            return bin + sh[i].sh_offset;
        }
    }
    return NULL;
}

/* The IP version in a zebin's compatibility notes, or 0. */
static uint32_t zebin_ip_version(const unsigned char *bin, size_t size)
{
    size_t len = 0;
    const unsigned char *p = elf_section(bin, size, ".note.intelgt.compat", &len);
    size_t off = 0;
    while (p && off + sizeof(Elf64_Nhdr) <= len) {
        Elf64_Nhdr nh;
        memcpy(&nh, p + off, sizeof nh);
        size_t name_at = off + sizeof nh, desc_at = name_at + ((nh.n_namesz + 3u) & ~3u);
        if (desc_at > len || nh.n_descsz > len - desc_at)
            break;
        if (nh.n_type == NOTE_IP_VERSION && nh.n_descsz == 4 && nh.n_namesz == 8 &&
            memcmp(p + name_at, "IntelGT", 8) == 0) {
            uint32_t ip;
            memcpy(&ip, p + desc_at, 4);
            return ip;
        }
        off = desc_at + ((nh.n_descsz + 3u) & ~3u);
    }
    return 0;
}

ze_result_t zecl_native_spirv(const void *binary, size_t size, const void **spirv,
                              size_t *spirv_size, char **log)
{
    *log = NULL;
    uint32_t ip = g.native_ip_version;
    if (!ip) {
        *log = zecl_strdup("ze_cl_driver: no native-binary match (no ZE_CL_DRIVER_IP_VERSION: "
                           "only SPIR-V is accepted)");
        return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    }
    uint32_t got = zebin_ip_version(binary, size);
    if (got != ip) {
        *log = zecl_asprintf("ze_cl_driver: native binary for IP version 0x%08x, this device is "
                             "0x%08x", got, ip);
        return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    }
    *spirv = elf_section(binary, size, ".spv", spirv_size);
    if (!*spirv) {
        *log = zecl_strdup("ze_cl_driver: the native binary carries no .spv section to run");
        return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    }
    pthread_mutex_lock(&g.lock);
    native_modules++;
    pthread_mutex_unlock(&g.lock);
    return ZE_RESULT_SUCCESS;
}

/* Native modules built so far (test hook, found with dlsym). */
__attribute__((visibility("default"))) uint64_t zecl_test_native_modules(void)
{
    pthread_mutex_lock(&g.lock);
    uint64_t n = native_modules;
    pthread_mutex_unlock(&g.lock);
    return n;
}
