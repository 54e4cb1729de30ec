package main

import "fmt"

type Employee interface {
	Pay() float64
	Title() string
}

type Salaried struct {
	Name   string
	Annual float64
}

type Hourly struct {
	Name  string
	Rate  float64
	Hours float64
}

func (s Salaried) Pay() float64  { return s.Annual / 12 }
func (s Salaried) Title() string { return s.Name + " (salaried)" }
func (h Hourly) Pay() float64 {
	pay := h.Rate * h.Hours
	if h.Hours > 160 {
		pay += (h.Hours - 160) * h.Rate * 0.5
	}
	return pay
}
func (h Hourly) Title() string { return h.Name + " (hourly)" }

func main() {
	staff := []Employee{
		Salaried{"Ann", 60000},
		Hourly{"Ben", 20, 170},
		Hourly{"Cy", 15.5, 80},
	}
	var total float64
	for _, e := range staff {
		fmt.Printf("%-16s %9.2f\n", e.Title(), e.Pay())
		total += e.Pay()
	}
	fmt.Printf("%-16s %9.2f\n", "TOTAL", total)
}
