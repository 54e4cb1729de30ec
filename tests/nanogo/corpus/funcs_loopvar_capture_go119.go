package main

import "fmt"

func main() {
	var prints []func()
	for _, v := range []string{"a", "b", "c"} {
		prints = append(prints, func() { fmt.Print(v, " ") })
	}
	for _, p := range prints {
		p()
	}
	fmt.Println()
	for i := 0; i < 3; i++ {
		defer func() { fmt.Print("defer i=", i, " ") }()
	}
	var ptrs []*int
	for i := 0; i < 3; i++ {
		ptrs = append(ptrs, &i)
	}
	fmt.Println(*ptrs[0], *ptrs[1], *ptrs[2])
	var fixed []func() int
	for i := 0; i < 3; i++ {
		i := i
		fixed = append(fixed, func() int { return i })
	}
	fmt.Println(fixed[0](), fixed[1](), fixed[2]())
}
