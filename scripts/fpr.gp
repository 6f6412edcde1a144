# False-positive rate vs bits per key (log y): measured points with their 95%
# Wilson interval, and the exact, Putze and classic formulas.
# Called by scripts/bench.sh: gnuplot -e "dir='DIR'; term='pngcairo'" fpr.gp
load dir.'/plotvars.gp'
load 'scripts/colours.gp'
if (term eq 'pngcairo') {
  set terminal pngcairo size 1400,1000 font ',10' noenhanced
} else {
  set terminal png size 1400,1000 noenhanced
}
set output dir.'/fpr.png'
set datafile missing 'NaN'
set logscale y
set format y '1e%L'
set xlabel 'bits per key (counting: counters per key)'
set ylabel 'false-positive rate'
set grid
set key top right
set multiplot layout (words(layouts) > 4 ? 3 : 2),2 title 'False-positive rate: measured (pooled over 8-16 filters, 95% interval across them) against theory'
do for [L in layouts] {
  set title L
  f = dir.'/fpr_'.L.'.dat'
  if (L eq 'classic') {
    # Putze's formula is for blocked filters
    plot f using 1:5 skip 1 with lines lw 2 lc rgb series_colour('exact') title 'exact (sbf_fpp_theory)', \
         f using 1:7 skip 1 with lines lw 1 dt 3 lc rgb series_colour('classic') title 'classic', \
         f using 1:2:3:4 skip 1 with yerrorbars pt 7 ps 0.6 lc rgb series_colour('measured') title 'measured (95% across filters)'
  } else {
    plot f using 1:5 skip 1 with lines lw 2 lc rgb series_colour('exact') title 'exact (sbf_fpp_theory)', \
         f using 1:6 skip 1 with lines lw 1 dt 2 lc rgb series_colour('putze') title 'Putze et al.', \
         f using 1:7 skip 1 with lines lw 1 dt 3 lc rgb series_colour('classic') title 'classic', \
         f using 1:2:3:4 skip 1 with yerrorbars pt 7 ps 0.6 lc rgb series_colour('measured') title 'measured (95% across filters)'
  }
}
unset multiplot
