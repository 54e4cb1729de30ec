package main

import (
	"fmt"
	"strings"
)

func main() {
	nums := make([]int, 1000000)
	for i := range nums {
		nums[i] = i % 1000
	}
	total := 0
	for _, v := range nums {
		total += v
	}
	fmt.Println(len(nums), total)
	m := make(map[int]int)
	for i := 0; i < 100000; i++ {
		m[i%5003] += i
	}
	fmt.Println(len(m), m[0], m[5002])
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		sb.WriteString("ab")
	}
	s := sb.String()
	fmt.Println(len(s), strings.Count(s, "ba"), s[len(s)-4:])
	words := strings.Fields(strings.Repeat("go is fun ", 10000))
	freq := map[string]int{}
	for _, w := range words {
		freq[w]++
	}
	fmt.Println(len(words), freq)
}
