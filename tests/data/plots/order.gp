# 'run order of experiment 1', written by contend.
# Re-render: gnuplot 'order.gp'   or as SVG: gnuplot -e "fmt='svg'" 'order.gp'
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,500 dynamic noenhanced font 'sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 1000,500 noenhanced font 'sans,10'
}
if (exists('contend_stdout')) { set output } else { set output (fmt eq 'svg' ? 'order.svg' : 'order.png') }
set title 'run order: plot-fixture — testhost, 6.1.0-test'
set grid
set key outside right top
set border 3
set tics nomirror
set multiplot layout 1,2 title 'run order: the metric of every ok run against its sequence number'
unset title
set xlabel 'run sequence number (order of execution)'
set key below horizontal Left reverse title 'measured runs, a line per configuration' left
set bmargin 10
set title 'mutex: throughput'
set ylabel 'throughput (ops/s)'
set format y '%.1s%c'
plot \
  'order.dat' index 0 using 1:($3 > 0 ? 1/0 : $2) with linespoints pt 7 title 'threads=1', \
  'order.dat' index 1 using 1:($3 > 0 ? 1/0 : $2) with linespoints pt 7 title 'threads=2', \
  'order.dat' index 2 using 1:($3 > 0 ? 1/0 : $2) with linespoints pt 6 title '(!) threads=4', \
  for [i=0:2] 'order.dat' index i using 1:($3 > 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb 'black' title (i == 0 ? 'warm-up runs (x, no line: not analysed)' : ''), \
  keyentry with points pt 6 lc rgb 'black' title '(!) and open marks: flagged; contend report says why'
set title 'x`touch pwned-bq` ''"\ system("touch pwned-sys") @mac: throughput'
set ylabel 'throughput (ops/s)'
set format y '%g'
plot \
  'order.dat' index 3 using 1:($3 > 0 ? 1/0 : $2) with linespoints pt 7 title 'x`touch pwned-bq` ''"\ system("touch p...', \
  for [i=3:3] 'order.dat' index i using 1:($3 > 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb 'black' title (i == 3 ? 'warm-up runs (x, no line: not analysed)' : '')
unset multiplot
