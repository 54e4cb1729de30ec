type Person struct {
	Name string
	Age  int
}

people := []Person{{"Alice", 30}, {"Bob", 25}, {"Charlie", 35}, {"Dave", 25}}
sort.Slice(people, func(i, j int) bool {
	if people[i].Age != people[j].Age {
		return people[i].Age < people[j].Age
	}
	return people[i].Name < people[j].Name
})
for _, p := range people {
	fmt.Printf("%s (%d)\n", p.Name, p.Age)
}
fmt.Println(people)
