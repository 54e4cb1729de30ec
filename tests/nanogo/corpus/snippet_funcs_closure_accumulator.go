accumulate := func() func(float64) float64 {
	total := 0.0
	return func(x float64) float64 {
		total += x
		return total
	}
}()
for _, v := range []float64{1.5, 2.5, 3} {
	fmt.Println(accumulate(v))
}
funcs := make([]func() int, 3)
for i := range funcs {
	j := i
	funcs[i] = func() int { return j * 10 }
}
for _, f := range funcs {
	fmt.Print(f(), " ")
}
fmt.Println()
