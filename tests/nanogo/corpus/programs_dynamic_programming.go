package main

import (
	"fmt"
	"strings"
)

func lcs(a, b string) string {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				dp[i][j] = dp[i-1][j-1] + 1
			} else if dp[i-1][j] >= dp[i][j-1] {
				dp[i][j] = dp[i-1][j]
			} else {
				dp[i][j] = dp[i][j-1]
			}
		}
	}
	var sb []byte
	for i, j := len(a), len(b); i > 0 && j > 0; {
		switch {
		case a[i-1] == b[j-1]:
			sb = append(sb, a[i-1])
			i--
			j--
		case dp[i-1][j] >= dp[i][j-1]:
			i--
		default:
			j--
		}
	}
	for l, r := 0, len(sb)-1; l < r; l, r = l+1, r-1 {
		sb[l], sb[r] = sb[r], sb[l]
	}
	return string(sb)
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min3(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

func min3(a, b, c int) int {
	m := a
	if b < m {
		m = b
	}
	if c < m {
		m = c
	}
	return m
}

func knapsack(weights, values []int, capacity int) int {
	dp := make([]int, capacity+1)
	for i := range weights {
		for c := capacity; c >= weights[i]; c-- {
			if v := dp[c-weights[i]] + values[i]; v > dp[c] {
				dp[c] = v
			}
		}
	}
	return dp[capacity]
}

func coinWays(coins []int, amount int) int {
	ways := make([]int, amount+1)
	ways[0] = 1
	for _, c := range coins {
		for a := c; a <= amount; a++ {
			ways[a] += ways[a-c]
		}
	}
	return ways[amount]
}

func main() {
	fmt.Printf("%q\n", lcs("AGGTAB", "GXTXAYB"))
	fmt.Printf("%q\n", lcs("the quick brown fox", "a quick brown dog"))
	for _, p := range [][2]string{{"kitten", "sitting"}, {"flaw", "lawn"}, {"", "abc"}, {"héllo", "hello"}} {
		fmt.Printf("%s -> %s: %d\n", p[0], p[1], levenshtein(p[0], p[1]))
	}
	fmt.Println(knapsack([]int{1, 3, 4, 5}, []int{1, 4, 5, 7}, 7))
	fmt.Println(coinWays([]int{1, 2, 5}, 11), coinWays([]int{2, 5, 3, 6}, 10), coinWays([]int{1, 5, 10, 25, 50}, 100))
	fmt.Println(strings.Repeat("=", 10))
}
