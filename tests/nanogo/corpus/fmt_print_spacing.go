package main

import "fmt"

func main() {
	fmt.Print("a", "b", 1, 2, "c", 3.5, true, "\n")
	fmt.Print(1, 2, 3, "\n")
	fmt.Print("x", 1, "\n")
	fmt.Println("a", "b", 1, 2)
	fmt.Println()
	s := fmt.Sprint("n=", 5, 6, " ok")
	fmt.Println(s, len(s))
	fmt.Println(fmt.Sprintln("with", "newline") + "|")
	n, err := fmt.Println("count me")
	fmt.Println(n, err)
	fmt.Print()
	fmt.Print(nil, nil, "\n")
	fmt.Print([]int{1}, []int{2}, "\n")
}
