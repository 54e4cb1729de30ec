package main

import "fmt"

func main() {
	m := map[int]int{}
	for i := 0; i < 10; i++ {
		m[i] = i * i
	}
	for k := range m {
		if k%2 == 0 {
			delete(m, k)
		}
	}
	fmt.Println(len(m), m)
	sum := 0
	for _, v := range m {
		sum += v
	}
	fmt.Println(sum)
	clear := func(mm map[int]int) {
		for k := range mm {
			delete(mm, k)
		}
	}
	clear(m)
	fmt.Println(m, len(m))
}
