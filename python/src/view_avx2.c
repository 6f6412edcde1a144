/* view_isa.inc with AVX2 + BMI2 (setup.py adds the flags) */
#define VIEW_ISA avx2
#include "view_isa.inc"
