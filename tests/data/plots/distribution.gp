# distribution of experiment 1, written by contend.
# Re-render: gnuplot distribution.gp   or as SVG: gnuplot -e "fmt='svg'" distribution.gp
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,650 dynamic noenhanced font 'sans,11' background rgb 'white'
    set output 'distribution.svg'
} else {
    set terminal pngcairo size 1000,650 noenhanced font 'sans,10'
    set output 'distribution.png'
}
set title 'distribution: plot-fixture — testhost, 6.1.0-test'
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
set style fill solid 0.25 border -1
set style boxplot nooutliers
set ylabel 'throughput (ops/s)'
plot for [i=0:3] 'distribution.dat' index i using (i + 1):2 with boxplot lc rgb '#4477aa' notitle, \
  'distribution.dat' using ($1 + $3):2 with points pt 7 ps 0.6 lc rgb '#222222' title 'runs'
