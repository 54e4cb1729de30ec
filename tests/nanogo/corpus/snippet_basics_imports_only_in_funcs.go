func report(name string, vals []float64) {
	sort.Float64s(vals)
	fmt.Printf("%s: min=%.1f max=%.1f sqrt(max)=%.3f\n", name, vals[0], vals[len(vals)-1], math.Sqrt(vals[len(vals)-1]))
}

report("temps", []float64{21.5, 19, 25.25, 18})
report("loads", []float64{0.5, 4, 2})
