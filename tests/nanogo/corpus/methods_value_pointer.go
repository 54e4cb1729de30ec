package main

import "fmt"

type Counter struct{ n int }

func (c Counter) Value() int { return c.n }
func (c *Counter) Inc()      { c.n++ }
func (c Counter) IncCopy()   { c.n++ }

type Celsius float64

func (c Celsius) Fahrenheit() float64 { return float64(c)*9/5 + 32 }

type IntList []int

func (l IntList) Sum() int {
	s := 0
	for _, v := range l {
		s += v
	}
	return s
}

func (l *IntList) Add(v int) { *l = append(*l, v) }

func main() {
	var c Counter
	c.Inc()
	c.Inc()
	c.IncCopy()
	fmt.Println(c.Value())
	p := &c
	p.Inc()
	fmt.Println(p.Value(), c.n)
	f := c.Inc
	f()
	f()
	fmt.Println(c.n)
	g := Counter.Value
	fmt.Println(g(c))
	fmt.Println(Celsius(100).Fahrenheit())
	var l IntList
	l.Add(3)
	l.Add(4)
	fmt.Println(l, l.Sum())
}
