/* placeholder */
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv){ if (argc > 1 && !strcmp(argv[1], "--list")) puts("c"); return 0; }
