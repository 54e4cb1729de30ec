package main

import "fmt"

const Big = 1 << 100
const Small = Big >> 98

func main() {
	fmt.Println(0.1 + 0.2)
	x, y := 0.1, 0.2
	fmt.Println(x + y)
	fmt.Println(0.1+0.2 == 0.3, x+y == 0.3)
	fmt.Println(Small)
	fmt.Println(Big / (1 << 90))
	const third = 1.0 / 3
	fmt.Println(third * 3)
	fmt.Println(1 / 3, 1.0 / 3)
	const h = 'a' + 1
	fmt.Println(h)
	fmt.Printf("%T %T %T\n", h, third, Small)
	var f32 float32 = 0.1
	fmt.Println(f32, float64(f32))
	const c = 7 / 2
	const d = 7 / 2.0
	fmt.Println(c, d)
}
