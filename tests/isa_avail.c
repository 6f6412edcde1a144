/*
 * Prints the name of every ISA this build and CPU run, one a line, in the
 * registry's order (best first): `make test-isas` runs the whole suite once
 * with each of them forced through SBF_ISA.
 */
#include <stdio.h>

#include "simdbloom.h"

int main(void)
{
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        if (sbf_isa_available(isas[i]))
            printf("%s\n", sbf_isa_name(isas[i]));
    return 0;
}
