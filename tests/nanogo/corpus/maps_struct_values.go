package main

import "fmt"

type Point struct{ X, Y int }

func main() {
	m := map[string]Point{"origin": {0, 0}, "p": {1, 2}}
	p := m["p"]
	p.X = 10
	m["p"] = p
	fmt.Println(m)
	ptrs := map[string]*Point{"a": {1, 1}}
	ptrs["a"].Y = 5
	fmt.Println(*ptrs["a"])
	byPoint := map[Point]string{{1, 2}: "one-two", {0, 0}: "zero"}
	fmt.Println(byPoint[Point{1, 2}], byPoint)
	type key struct {
		a string
		b int
	}
	memo := map[key]int{}
	memo[key{"x", 1}] = 10
	fmt.Println(memo[key{"x", 1}], len(memo))
	arrKey := map[[2]int]bool{{1, 2}: true}
	fmt.Println(arrKey[[2]int{1, 2}], arrKey[[2]int{2, 1}])
}
