vals := []float64{0, 1, -1.5, 3.14159265, 1234567.891, 0.000123, 1e21, 100}
for _, v := range vals {
	fmt.Printf("%v | %g | %.3f | %e | %8.2f\n", v, v, v, v, v)
}
fmt.Println(float32(3.14159265), 2.0, 2.50)
