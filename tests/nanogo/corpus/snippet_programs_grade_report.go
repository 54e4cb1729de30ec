type Student struct {
	Name   string
	Scores []int
}

students := []Student{
	{"Ana", []int{92, 88, 95}},
	{"Ben", []int{75, 64, 80}},
	{"Cai", []int{58, 62, 49}},
}
for _, s := range students {
	sum := 0
	for _, sc := range s.Scores {
		sum += sc
	}
	avg := float64(sum) / float64(len(s.Scores))
	grade := "F"
	switch {
	case avg >= 90:
		grade = "A"
	case avg >= 80:
		grade = "B"
	case avg >= 70:
		grade = "C"
	case avg >= 60:
		grade = "D"
	}
	fmt.Printf("%-4s avg=%6.2f grade=%s\n", s.Name, avg, grade)
}
