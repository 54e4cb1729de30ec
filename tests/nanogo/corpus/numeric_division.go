package main

import "fmt"

func main() {
	fmt.Println(7/2, -7/2, 7/-2, -7/-2)
	fmt.Println(7%3, -7%3, 7%-3, -7%-3)
	fmt.Println(7.0/2, 7/2.0, float64(7)/2)
	a, b := 17, 5
	fmt.Println(a/b, a%b, float64(a)/float64(b))
	var x int = 1
	var y int = 3
	fmt.Println(x / y, float64(x) / float64(y))
	fmt.Println(10 / 4 * 4, 10 / 4.0 * 4)
	var m int64 = -9
	fmt.Println(m/4, m%4, m>>1, m>>2)
	var u uint = 9
	fmt.Println(u/4, u%4, u>>1)
}
