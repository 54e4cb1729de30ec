package main

import "fmt"

type T struct{ A int }

func main() {
	fmt.Println(fmt.Sprint(1, 2))
	fmt.Println(fmt.Sprint("a", "b"))
	fmt.Println(fmt.Sprint(1, "a", 2))
	fmt.Println(fmt.Sprint(T{1}, T{2}))
	fmt.Println(fmt.Sprint(1.5, true, false))
	fmt.Println(fmt.Sprint([]int{1}, 2))
	fmt.Println(fmt.Sprint(nil, 1))
	fmt.Println(fmt.Sprint(errorString("e1"), errorString("e2")))
	fmt.Println(fmt.Sprint('a', 'b'))
}

type errorString string

func (e errorString) Error() string { return string(e) }
