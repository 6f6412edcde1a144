/* view_isa.inc with AVX-512 F/BW/DQ/VL + BMI2 (setup.py adds the flags) */
#define VIEW_ISA avx512
#include "view_isa.inc"
