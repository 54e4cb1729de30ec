type Employee struct {
	Name   string
	Salary float64
	Dept   string
}

employees := []Employee{
	{"Alice", 85000, "Engineering"},
	{"Bob", 62000, "Marketing"},
	{"Carol", 95000, "Engineering"},
}
byDept := map[string]float64{}
for _, e := range employees {
	byDept[e.Dept] += e.Salary
}
fmt.Println(byDept)
for _, e := range employees {
	fmt.Printf("%-6s %-12s $%9.2f\n", e.Name, e.Dept, e.Salary)
}
fmt.Printf("%v\n%+v\n", employees[0], employees[1])
