func cToF(c float64) float64 { return c*9/5 + 32 }
func fToC(f float64) float64 { return (f - 32) * 5 / 9 }

fmt.Printf("%-8s %-8s\n", "Celsius", "Fahrenheit")
for c := -10.0; c <= 40; c += 12.5 {
	fmt.Printf("%-8.1f %-8.1f\n", c, cToF(c))
}
fmt.Printf("98.6°F = %.2f°C\n", fToC(98.6))
