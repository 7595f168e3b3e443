/*
 * memhog.c — a test helper (not part of the product): a program whose
 * processes each hold some memory until they are killed, for the tests of a
 * job's memory limit (tests/test_runner.c).
 *
 *   ab-memhog N MIB   forks N children; each allocates MIB MiB, writes every
 *                     page of it, says "held" on stdout, then waits to be
 *                     killed; the parent waits for them all.
 *
 * Built without sanitizers: it must hold exactly what it is told, and its
 * address space must fit under the per-process limits a job inherits.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: ab-memhog N MIB\n");
        return 2;
    }
    int n = atoi(argv[1]);
    size_t bytes = (size_t)atol(argv[2]) << 20;
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid > 0) continue;
        unsigned char *m = malloc(bytes);
        if (m == NULL) _exit(3);
        long page = sysconf(_SC_PAGESIZE);
        for (size_t k = 0; k < bytes; k += (size_t)page) m[k] = (unsigned char)(k >> 12 | 1);
        printf("held %zu MiB\n", bytes >> 20);
        fflush(stdout);
        for (;;) pause();
    }
    while (wait(NULL) > 0) {
    }
    return 0;
}
