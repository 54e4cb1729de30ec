fmt.Println(0.1 + 0.2)
a := 0.1
b := 0.2
fmt.Println(a + b)
fmt.Printf("%.20f\n", a+b)
fmt.Println(1e-3, 1e3, 123.456e2)
var f32 float32 = 1.1
fmt.Println(f32 * f32)
fmt.Println(float64(f32))
