# Throughput by filter size per ISA (log x), from sbf-bench's tput_*.dat.
# Called by scripts/bench.sh: gnuplot -e "dir='DIR'; term='pngcairo'" throughput.gp
load dir.'/plotvars.gp'
load 'scripts/colours.gp'
if (term eq 'pngcairo') {
  set terminal pngcairo size 1400,1000 font ',10' noenhanced
} else {
  set terminal png size 1400,1000 noenhanced
}
set datafile missing 'NaN'
set key autotitle columnhead outside right top vertical
set logscale x 2
set logscale y 2
set format y '%g'
set format x '%.0b%BB'
set xlabel 'filter size'
set ylabel 'ns per key (lower is better)'
set grid xtics ytics mytics
set style data linespoints
do for [op in 'contains add'] {
  # every panel of a figure on one y range, so layouts compare by eye
  if (exists('tput_'.op.'_ymin')) {
    set yrange [value('tput_'.op.'_ymin'):value('tput_'.op.'_ymax')]
  } else {
    set autoscale y
  }
  set output dir.'/throughput'.(op eq 'add' ? '_add' : '').'.png'
  set multiplot layout (words(layouts) > 4 ? 3 : 2),2 title (op eq 'add' ? \
      'Batched add of fresh keys (sbf_add_u64 into a cleared filter), u64 keys; libbloom = single calls' : \
      'Batched contains (sbf_contains_u64), absent u64 keys; roofline = one random line per key; libbloom = single calls')
  do for [L in layouts] {
    set title L
    f = dir.'/tput_'.L.'_'.op.'.dat'
    # columns: bytes, one per ISA (isas), roofline, libbloom
    if (op eq 'add') {
      plot for [i=2:nisa+1] f using 1:i lw 2 pt 7 ps 0.8 lc rgb series_colour(word(isas, i-1)), \
           f using 1:nisa+3 lw 2 pt 7 ps 0.8 lc rgb series_colour('libbloom')
    } else {
      plot for [i=2:nisa+1] f using 1:i lw 2 pt 7 ps 0.8 lc rgb series_colour(word(isas, i-1)), \
           f using 1:nisa+2 lw 2 pt 7 ps 0.8 lc rgb series_colour('roofline'), \
           f using 1:nisa+3 lw 2 pt 7 ps 0.8 lc rgb series_colour('libbloom')
    }
  }
  unset multiplot
}
