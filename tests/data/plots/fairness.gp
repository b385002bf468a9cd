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
set bmargin 11
set lmargin 20
set key outside top center horizontal
set tmargin 7
set label 1 "one thread:\nnothing to share" at 1, graph 0.5 center
set label 2 "one thread:\nnothing to share" at 4, graph 0.5 center
set style fill solid 0.7 border rgb 'white'
set yrange [0:1.32]
set format y '%g'
set ylabel "a thread's share / the fair share (1 = fair)"
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb 'black'
plot 'fairness.dat' using 1:2:3 with boxes lc rgb '#cc6677' title 'each thread, busiest first (mean over runs)', \
  keyentry with lines dt 2 lw 1.5 lc rgb 'black' title 'fair share: every thread the same', \
  keyentry with points pt 1 lc rgb 'white' title '(!) flagged: contend report says why'
