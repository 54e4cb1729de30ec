package main

import "fmt"

type Money struct {
	Cents int64
}

func (m Money) String() string {
	return fmt.Sprintf("$%d.%02d", m.Cents/100, m.Cents%100)
}

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

type Pair struct {
	Label string
	Cost  Money
}

type PtrStringer struct{ v int }

func (p *PtrStringer) String() string { return fmt.Sprintf("PS<%d>", p.v) }

func main() {
	m := Money{12345}
	fmt.Println(m)
	fmt.Printf("%v %s %d\n", m, m, m.Cents)
	fmt.Println([]Money{{1}, {250}})
	fmt.Println(Pair{"book", Money{999}})
	fmt.Printf("%+v\n", Pair{"pen", Money{5}})
	fmt.Println(Temp(21.55))
	ps := PtrStringer{3}
	fmt.Println(ps, &ps)
	fmt.Println(map[string]Money{"a": {100}})
}
