package main

import "fmt"

func main() {
	s := []int{1, 2, 3}
	for i, v := range s {
		if i == 0 {
			s = append(s, 4)
			s[1] = 20
		}
		fmt.Print(v, " ")
	}
	fmt.Println(s)
	arr := [3]int{1, 2, 3}
	for i, v := range arr {
		if i == 0 {
			arr[1] = 20
		}
		fmt.Print(v, " ")
	}
	fmt.Println(arr)
	var funcs []func() int
	for i := 0; i < 3; i++ {
		funcs = append(funcs, func() int { return i * i })
	}
	for _, f := range funcs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
}
