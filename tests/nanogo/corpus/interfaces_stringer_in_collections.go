package main

import (
	"fmt"
	"strings"
)

type Suit int

const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

func (s Suit) String() string { return [...]string{"♠", "♥", "♦", "♣"}[s] }

type Card struct {
	Rank int
	Suit Suit
}

func (c Card) String() string {
	names := map[int]string{1: "A", 11: "J", 12: "Q", 13: "K"}
	r, ok := names[c.Rank]
	if !ok {
		r = fmt.Sprint(c.Rank)
	}
	return r + c.Suit.String()
}

type Hand []Card

func (h Hand) String() string {
	parts := make([]string, len(h))
	for i, c := range h {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

func main() {
	h := Hand{{1, Spades}, {10, Hearts}, {12, Diamonds}, {7, Clubs}}
	fmt.Println(h)
	fmt.Println([]Card(h))
	fmt.Printf("%v|%s|%d\n", h[0], h[1], h[2])
	fmt.Println(map[Suit]int{Hearts: 2, Spades: 1})
	fmt.Printf("%+v\n", struct{ C Card }{h[3]})
}
