result := uint64(1)
for i := uint64(1); i <= 20; i++ {
	result *= i
}
fmt.Println("20! =", result)
result *= 21
fmt.Println("21! overflows to", result)
var f float64 = 1
for i := 1; i <= 25; i++ {
	f *= float64(i)
}
fmt.Println("25! ≈", f)
fmt.Printf("%.0f\n", f)
