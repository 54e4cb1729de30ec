package main

import "fmt"

func main() {
	s := "hello"
	b := []byte(s)
	for i := range b {
		b[i] -= 32
	}
	fmt.Println(string(b), s)
	var counts [26]int
	for _, c := range "mississippi" {
		counts[c-'a']++
	}
	for i, n := range counts {
		if n > 0 {
			fmt.Printf("%c=%d ", 'a'+i, n)
		}
	}
	fmt.Println()
	digits := "12345"
	sum := 0
	for i := 0; i < len(digits); i++ {
		sum += int(digits[i] - '0')
	}
	fmt.Println("digit sum:", sum)
	fmt.Println(string([]byte{72, 105}), []byte("Hi"))
}
