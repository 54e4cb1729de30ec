package main

import "fmt"

func main() {
	var a [5]int
	a[2] = 7
	fmt.Println(a, len(a))
	b := [3]string{"x", "y", "z"}
	c := [...]int{1, 2, 3, 4}
	fmt.Println(b, c, len(c))
	d := c
	d[0] = 100
	fmt.Println(c[0], d[0])
	fmt.Println(c == [4]int{1, 2, 3, 4}, c != d)
	var grid [3][3]int
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			grid[i][j] = i * j
		}
	}
	fmt.Println(grid)
	e := [5]int{1: 10, 3: 30}
	fmt.Println(e)
	total := 0
	for _, v := range c {
		total += v
	}
	fmt.Println("total", total)
}
