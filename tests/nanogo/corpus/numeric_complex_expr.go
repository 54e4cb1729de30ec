package main

import "fmt"

func main() {
	celsius := []float64{-40, 0, 37, 100}
	for _, c := range celsius {
		f := c*9/5 + 32
		fmt.Printf("%.1f°C = %.1f°F\n", c, f)
	}
	principal := 1000.0
	rate := 0.05
	for year := 1; year <= 3; year++ {
		principal *= 1 + rate
		fmt.Printf("Year %d: $%.2f\n", year, principal)
	}
	avg := float64(1+2+3+4) / 4
	fmt.Println("avg:", avg)
	fmt.Println(5/9*100, 5.0/9*100)
}
