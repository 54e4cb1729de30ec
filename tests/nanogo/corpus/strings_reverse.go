package main

import "fmt"

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func isPalindrome(s string) bool {
	return s == reverse(s)
}

func main() {
	for _, w := range []string{"hello", "racecar", "Go语言", "", "a"} {
		fmt.Printf("%q -> %q palindrome=%v\n", w, reverse(w), isPalindrome(w))
	}
}
