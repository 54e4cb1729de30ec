type Weekday int

func (d Weekday) String() string {
	return [...]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}[d]
}

func (d Weekday) Weekend() bool { return d == 0 || d == 6 }

for d := Weekday(0); d < 7; d++ {
	fmt.Printf("%v weekend=%v\n", d, d.Weekend())
}
fmt.Println(Weekday(3), []Weekday{1, 2})
