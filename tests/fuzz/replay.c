/* replay.c — a main() for the fuzz targets without a fuzzer: runs each file
 * named on the command line through LLVMFuzzerTestOneInput once.  Linked
 * with fuzz_compile.c or fuzz_args.c and the ordinary libmuster, it is how
 * `make check` replays tests/fuzz/regressions/, and how a crash a fuzzer
 * found is reproduced under gdb. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 4096, len = 0, n;
        uint8_t *buf = malloc(cap);
        while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
            len += n;
            if (len == cap)
                buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        if (!buf) {
            fputs("out of memory\n", stderr);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        printf("replayed %s\n", argv[i]);
    }
    return 0;
}
