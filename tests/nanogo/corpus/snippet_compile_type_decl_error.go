type Point struct {
	X, Y int
}

p := Point{1, 2, 3}
fmt.Println(p)
