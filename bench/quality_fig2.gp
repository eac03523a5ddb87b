# Figure 2 of the paper, extended: recall vs size of edit (add, delete, substitute), per method.
#   gnuplot -e "data='fig2.dat'; out='fig2.svg'" bench/quality_fig2.gp
# The data file is written by `semfp_quality --fig2`: column 1 = edit rate in %, then for each
# kind (add, delete, subst) the same n methods, with a header row naming them.
if (!exists("data")) data = 'fig2.dat'
if (!exists("out")) out = 'fig2.svg'
set datafile separator "\t"
set key autotitle columnhead
stats data using 1 nooutput
n = (STATS_columns - 1) / 3
set terminal svg size 1500,520 dynamic font "sans,11"
set output out
set multiplot layout 1,3 title "Recall vs size of edit (DEV pairs, 600 pairs per point)"
set xlabel "edit size (% of the text)"
set ylabel "recall (%)"
set yrange [0:105]
set xrange [0:21]
set xtics (1, 2, 5, 10, 15, 20)
set grid
set key bottom left font ",9"
do for [kind = 0:2] {
    set title word("add delete substitute", kind + 1)
    plot for [m = 1:n] data using 1:(column(1 + kind * n + m)) with linespoints lw 2 pt (m + 4) \
        title columnhead(1 + kind * n + m)
    unset key
}
unset multiplot
