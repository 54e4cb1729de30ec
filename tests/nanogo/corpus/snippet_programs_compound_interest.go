principal := 10000.0
rate := 0.07
years := 10
for y := 1; y <= years; y++ {
	amount := principal * math.Pow(1+rate, float64(y))
	if y%2 == 0 {
		fmt.Printf("Year %2d: $%10.2f\n", y, amount)
	}
}
monthly := principal * (rate / 12) / (1 - math.Pow(1+rate/12, -float64(years*12)))
fmt.Printf("Monthly payment: $%.2f\n", monthly)
