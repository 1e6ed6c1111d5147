package cmdbase_test

import (
	"testing"
)

// containersExamples are the examples of safe_containers.go's table: each of its
// commands in a command that must be allowed and, where it has a form that
// is not read-only, in one that must ask.
var containersExamples = []safeGroup{
	{"compose and helm listings",
		[]string{"docker compose ps", "docker compose ls", "helm list -A", "helm ls -n web", "helm history web", "helm status web -o json"},
		[]string{"docker compose up -d", "docker compose config", "helm install web ./chart", "helm get values web", "helm list --kubeconfig /tmp/k"}},

	{"containers and clusters",
		[]string{
			"docker ps", "docker images", "docker logs web", "docker inspect -f '{{.State.Status}}' web", "docker inspect -f '{{.Path}} {{.Args}}' web",
			"docker inspect --format='{{range .Mounts}}{{.Source}} {{end}}' web", "docker inspect -f '{{.NetworkSettings.IPAddress}}' web",
			"docker stats --no-stream", "podman ps -a", "kubectl get pods", "kubectl -n prod logs deploy/web",
			"docker top web", "docker top web aux", "docker top web -o pid,args", "docker inspect -f '{{.State.Status}}' -f '{{.Name}}' web",
			"kubectl describe node x", "kubectl config current-context", "kubectl rollout status deploy/web"},
		[]string{
			"docker run alpine", "docker -H tcp://x ps", "docker inspect x", "docker stats", "podman rm x",
			"podman exec x sh", "kubectl delete pod x", "kubectl get secrets", "kubectl --token=x get pods",
			"kubectl get pods --kubeconfig=x", "kubectl apply -f x.yaml", "kubectl config use-context prod",
			"kubectl exec x -- sh", "kubectl cluster-info dump",
			// global options anywhere, klog's spelled with _ too
			"kubectl get pods --profile=cpu", "kubectl --profile=heap --profile-output=p version", "kubectl get pods --log_file=x",
			"kubectl --log-dir=d get pods", "kubectl get pods --cache-dir=c", "kubectl get pods --insecure-skip-tls-verify=true",
			"kubectl get pods --certificate-authority=ca.crt", "kubectl get pods --server=https://x",
			// a template naming the whole object prints its environment
			"docker inspect -f '{{.}}' web", "docker inspect -f '{{ . }}' web", "docker inspect -f '{{printf \"%v\" .}}' web",
			"docker inspect -f '{{range $k, $v := .}}{{$v}}{{end}}' web", "docker inspect -f '{{$}}' web",
			// docker takes the last --format: every one is judged
			"docker inspect -f '{{.Name}}' -f '{{.Config.Env}}' web", "docker inspect --format='{{.Name}}' --format='{{json .}}' web",
			"podman image inspect -f '{{.Id}}' --format '{{.Config.Env}}' alpine",
			// docker top passes ps(1) its options: e shows the processes' environment
			"docker top web e", "docker top web auxe", "docker container top web ewww", "podman top web e", "docker top web -o environ",
			// klog logs to files in the temporary directory; a columns file is read
			"kubectl --logtostderr=false get pods", "kubectl get pods --logtostderr=false", "kubectl get pods -o custom-columns-file=cols.txt"}},
	{"version and help",
		[]string{
			"docker --version"},
		[]string{
			"docker --version --host=x"}},
}

func TestSafeContainers(t *testing.T) { checkSafeExamples(t, containersExamples) }
