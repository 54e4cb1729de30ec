package main

import "fmt"

type Point struct {
	X, Y int
}

type Rect struct {
	Min, Max Point
}

func main() {
	a := Point{1, 2}
	b := Point{1, 2}
	c := Point{Y: 2}
	fmt.Println(a == b, a == c, a != c)
	r := Rect{Point{0, 0}, Point{10, 5}}
	fmt.Println(r, r.Max.X-r.Min.X)
	fmt.Printf("%+v\n", r)
	r2 := r
	r2.Max.Y = 50
	fmt.Println(r == r2, r.Max.Y, r2.Max.Y)
	points := []Point{{3, 4}, {0, 0}}
	fmt.Println(points, len(points))
}
