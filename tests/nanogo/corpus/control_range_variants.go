package main

import "fmt"

func main() {
	m := map[string]int{"x": 1}
	for k := range m {
		fmt.Println("key", k)
	}
	for range []int{1, 2} {
		fmt.Println("tick")
	}
	s := "ab"
	for i := range s {
		fmt.Println(i)
	}
	arr := [3]string{"p", "q", "r"}
	for i, v := range &arr {
		fmt.Println(i, v)
	}
	ch := make(chan int, 2)
	ch <- 5
	ch <- 6
	close(ch)
	for v := range ch {
		fmt.Println("ch", v)
	}
	var nilSlice []int
	for i, v := range nilSlice {
		fmt.Println(i, v)
	}
	fmt.Println("end")
}
