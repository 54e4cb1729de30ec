package main

import "fmt"

type State int

const (
	Idle State = iota
	Running
	Paused
	Stopped
)

var names = map[State]string{Idle: "Idle", Running: "Running", Paused: "Paused", Stopped: "Stopped"}

func (s State) String() string { return names[s] }

type Machine struct{ state State }

func (m *Machine) Handle(event string) error {
	transitions := map[State]map[string]State{
		Idle:    {"start": Running},
		Running: {"pause": Paused, "stop": Stopped},
		Paused:  {"resume": Running, "stop": Stopped},
	}
	next, ok := transitions[m.state][event]
	if !ok {
		return fmt.Errorf("invalid event %q in state %v", event, m.state)
	}
	fmt.Printf("%v --%s--> %v\n", m.state, event, next)
	m.state = next
	return nil
}

func main() {
	m := &Machine{}
	for _, e := range []string{"start", "pause", "start", "resume", "stop", "start"} {
		if err := m.Handle(e); err != nil {
			fmt.Println("error:", err)
		}
	}
	fmt.Println("final:", m.state)
}
