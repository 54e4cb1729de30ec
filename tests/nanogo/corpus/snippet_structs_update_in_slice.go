type Task struct {
	Title string
	Done  bool
}

tasks := []Task{{"write", false}, {"test", false}, {"ship", false}}
for _, t := range tasks {
	t.Done = true
}
fmt.Println(tasks)
for i := range tasks {
	if tasks[i].Title != "ship" {
		tasks[i].Done = true
	}
}
fmt.Printf("%+v\n", tasks)
ptr := &tasks[2]
tasks = append(tasks, Task{"celebrate", false})
ptr.Done = true
fmt.Println(tasks[2].Done, len(tasks))
