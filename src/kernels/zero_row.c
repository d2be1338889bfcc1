/* kernels/zero_row.c - the row of zeros the SIMD refraction kernels read above the top row and below the bottom one. */
#include "kernels/simd.h"

/* In a file of its own, not in dispatch.c beside the table: the kernels
 * need it and the table needs the kernels, and neither should need the
 * other back. */
const int16_t rpl_zero_row[RPL_DIM_MAX];
