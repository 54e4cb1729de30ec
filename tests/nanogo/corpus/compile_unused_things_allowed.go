package main

import "fmt"

const unusedConst = 42

var unusedGlobal = "fine"

type unusedType struct{}

func unusedFunc(a, b int) int { return 0 }

func main() {
	x := 1
	_ = x
	for _, v := range []int{1} {
		_ = v
	}
	var y int
	y = 2
	fmt.Println("unused constants, globals, types, funcs and params compile")
	func(unusedParam string) {}("p")
	_ = y
}
