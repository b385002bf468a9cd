# 'contention of experiment 1', written by contend.
# Re-render: gnuplot 'contention-2.gp'   or as SVG: gnuplot -e "fmt='svg'" 'contention-2.gp'
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,600 dynamic noenhanced font 'sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 1000,600 noenhanced font 'sans,10'
}
if (exists('contend_stdout')) { set output } else { set output (fmt eq 'svg' ? 'contention-2.svg' : 'contention-2.png') }
set title 'contention: plot-fixture — testhost, 6.1.0-test'
set grid
set key outside right top
set border 3
set tics nomirror
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set xrange [0:*]
set xlabel 'contended acquisitions (% of acquisitions)'
set format y '%.1s%c'
set ylabel 'throughput (ops/s)'
set key title 'x`touch pwned-bq` ''"\ system("touch pwned-sys") @mac' left
set key below Left reverse
plot \
  'contention-2.dat' index 0 using 1:2 with points pt 7 ps 1.2 title 'x`touch pwned-bq` ''"\ system("touch p...'
