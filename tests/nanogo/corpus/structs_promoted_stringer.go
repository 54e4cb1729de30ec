package main

import "fmt"

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d.%02d", m.Cents/100, m.Cents%100) }

type Price struct {
	Money
	Currency string
}

type Wallet struct {
	cash  Money
	Label string
}

type Public struct {
	Cash  Money
	Label string
}

type NotFound struct{ Key string }

func (e NotFound) Error() string { return "not found: " + e.Key }

type DetailedErr struct {
	NotFound
	Code int
}

func main() {
	p := Price{Money{1999}, "USD"}
	fmt.Println(p)
	fmt.Printf("%v %+v %s\n", p, p, p)
	w := Wallet{Money{250}, "mine"}
	fmt.Println(w)
	fmt.Printf("%+v\n", w)
	fmt.Println(Public{Money{250}, "pub"})
	d := DetailedErr{NotFound{"k1"}, 404}
	fmt.Println(d)
	var err error = d
	fmt.Println(err, d.Code)
}
