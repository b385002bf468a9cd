# 'fairness of experiment 1', written by contend.
# Re-render: gnuplot 'fairness.gp'   or as SVG: gnuplot -e "fmt='svg'" 'fairness.gp'
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,650 dynamic noenhanced font 'sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 1000,650 noenhanced font 'sans,10'
}
if (exists('contend_stdout')) { set output } else { set output (fmt eq 'svg' ? 'fairness.svg' : 'fairness.png') }
set title 'fairness: plot-fixture — testhost, 6.1.0-test'
set grid
set key outside right top
set border 3
set tics nomirror
set xtics rotate by 30 right ('mutex threads=1' 1, 'mutex threads=2' 2, '(!) mutex threads=4' 3, 'x`touch pwned-bq` ''"\ system("touch p...' 4)
set xrange [0.4:4.6]
set bmargin 12
set lmargin 14
set key outside top center horizontal
set tmargin 5
set style fill solid 0.6 border -1
set yrange [0:1.05]
set ylabel 'share of operations (mean over runs)'
plot 'fairness.dat' using 1:2:4 with boxes lc rgb '#cc6677' title 'thread share, busiest first', \
  'fairness.dat' using 1:3 with points pt 1 ps 1.5 lc rgb 'black' title 'fair share'
