sum := 0.0
sign := 1.0
for k := 0; k < 200000; k++ {
	sum += sign / float64(2*k+1)
	sign = -sign
}
approx := 4 * sum
fmt.Printf("pi ≈ %.10f (error %.2e)\n", approx, math.Abs(approx-math.Pi))
