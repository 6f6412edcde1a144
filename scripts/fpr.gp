# False-positive rate, measured / exact, against bits per key: the measured
# points with the 95% interval across filters (both divided by the exact
# rate), the line 1 (the exact formula), and Putze's and the classic formula
# divided by the exact one. A ratio shows agreement within a percent that a
# log plot of the rates over five decades cannot.
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
set xlabel 'bits per key (counting: counters per key)'
set ylabel 'false-positive rate / exact formula'
set yrange [0.9:1.1]
set ytics 0.02
set mytics 2
set grid xtics ytics mytics
set key bottom left
set xrange [3:25]
set multiplot layout (words(layouts) > 4 ? 3 : 2),2 title 'False-positive rate, measured / exact (pooled over 8-16 filters; bars: 95% interval across them); every panel on one scale, formulas past it leave the panel'
do for [L in layouts] {
  set title L
  f = dir.'/fpr_'.L.'.dat'
  # columns: bits_per_key measured lo hi exact putze classic wilson_lo wilson_hi
  if (L eq 'classic') {
    # Putze's formula is for blocked filters; the classic formula is exact here
    plot 1 with lines lw 2 lc rgb series_colour('exact') title 'exact (sbf_fpp_theory)', \
         f using 1:($2/$5):($3/$5):($4/$5) skip 1 with yerrorbars pt 7 ps 0.8 lw 1.5 lc rgb series_colour('measured') title 'measured'
  } else {
    plot 1 with lines lw 2 lc rgb series_colour('exact') title 'exact (sbf_fpp_theory)', \
         f using 1:($6/$5) skip 1 with lines lw 1.5 dt 2 lc rgb series_colour('putze') title 'Putze et al.', \
         f using 1:($7/$5) skip 1 with lines lw 1.5 dt 3 lc rgb series_colour('classic formula') title 'classic formula', \
         f using 1:($2/$5):($3/$5):($4/$5) skip 1 with yerrorbars pt 7 ps 0.8 lw 1.5 lc rgb series_colour('measured') title 'measured'
  }
}
unset multiplot
