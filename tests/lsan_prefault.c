/*
 * lsan_prefault.c — in the sanitized test programs and arenabench-test: map
 * the program's data and bss in one call at start, for LeakSanitizer's check
 * at exit.
 *
 * LeakSanitizer reads every writable byte of the program at exit, looking
 * for pointers into the heap. Linked in (-static-libasan), the sanitizers'
 * own tables are part of the program's bss: about 5.5 MB (the stack depot
 * alone is 4.25 MB), almost all of it never written, so the check's reads
 * take about 1,200 page faults, one page at a time, in each of the 1,700
 * sanitized processes a test run starts. MADV_POPULATE_READ (Linux 5.14)
 * maps those pages in one call instead: an empty sanitized program took
 * 20-23 ms of CPU against 28-30 ms, on the session VM (perf stat -r 30).
 * Nothing changes in what is checked: the same bytes are read, only sooner
 * mapped. Where the kernel does not know the advice, madvise fails and
 * nothing else happens.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/* dl_iterate_phdr visits the program first: its writable segments, then stop. */
static int abt_prefault_program(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0) continue;
        uintptr_t begin = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) & ~(page - 1);
        (void)madvise((void *)begin, end - begin, MADV_POPULATE_READ);
    }
    return 1;
}

__attribute__((constructor)) static void abt_prefault(void) {
    dl_iterate_phdr(abt_prefault_program, NULL);
}
